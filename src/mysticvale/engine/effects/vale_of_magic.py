"""Effects of the Vale of Magic expansion (file 000, Advancements and Vales Expansion 1)."""
