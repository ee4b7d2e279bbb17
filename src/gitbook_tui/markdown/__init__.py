"""GitBook-flavoured markdown parsed into a block model."""
