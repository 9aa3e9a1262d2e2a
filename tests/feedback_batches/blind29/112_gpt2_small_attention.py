from typing import NamedTuple


class GPT2SmallAttentionConfig(NamedTuple):
    d_in: int = 768
    d_out: int = 768
    context_length: int = 1024
    dropout: float = 0.0
    num_heads: int = 12


def gpt2_small_attention():
    """Book exercise 3.3, built from a NamedTuple of GPT-2 small's sizes."""
    return MultiHeadAttention(**GPT2SmallAttentionConfig()._asdict())
