"""The Comments view (3): threads of a space or page, replies, reactions, composer."""
