"""llmkit: the building blocks of modern LLMs, one module per textbook section."""
