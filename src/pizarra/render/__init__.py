"""The lesson model and its checks -> HTML pages: templates, math, highlighting, explorers."""
