"""The one edge that runs lesson code: a sandboxed kernel per lesson."""
