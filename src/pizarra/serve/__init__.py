"""``pizarra serve``: the last good build from memory, explorer states, live reload."""
