"""The names the kit's assignments carry in an LMS (its links and gradebook columns): shared by
deep linking and the LTI demo's course, which needs them before any Django is set up."""


def assignment_title(assignment_id: str) -> str:
    """``01_attention_scores`` -> ``01 Attention scores``."""
    number, _, words = assignment_id.partition("_")
    return f"{number} {words.replace('_', ' ').capitalize()}"
