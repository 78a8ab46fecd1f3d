"""What every stage may use, knowing nothing of lessons.

Errors as values, the store of caches, whole-file writes, YAML with positions, and the
languages (:mod:`pizarra.base.i18n`).
"""
