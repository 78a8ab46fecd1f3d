"""Rendered pages -> the site on disk: staged and swapped atomically, with its search index."""
