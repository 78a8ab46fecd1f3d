"""Source files -> the parsed lesson model.

The course manifest, lesson files, the markdown-it instance, MyST syntax (one module per
directive or role in ``syntax/``), explorer declarations and the notebook importer.
"""
