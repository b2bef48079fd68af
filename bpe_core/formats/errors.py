"""The one error every reader of a tokenizer file raises."""


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read: malformed, foreign or from a newer version. The
    message names the file and says what to change."""
