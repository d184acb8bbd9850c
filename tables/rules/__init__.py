"""The game's rules as pure functions (no Django): prompts whose wording follows the number of agents,
the vote parser (a JSON schema and a lenient free-text fallback), the similarity checks (repetition and
plagiarism, rapidfuzz), the LLM judge's reply parser and the four metrics."""
