"""The orchestration above the stages: the build as a table of contents, its workers and caches."""
