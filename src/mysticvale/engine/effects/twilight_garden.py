"""Effects of the Twilight Garden expansion and its leaders (file 003)."""
