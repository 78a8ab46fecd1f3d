"""Words the interface says, and numbers as each language writes them."""
