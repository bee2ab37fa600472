"""Terminal front ends: the Rich demo now, the Textual app later."""
