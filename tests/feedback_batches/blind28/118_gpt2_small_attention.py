from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class GPT2SmallAttentionConfig:
    d_in: int = 768
    d_out: int = 768
    context_length: int = 1024
    dropout: float = 0.0
    num_heads: int = 12


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    return MultiHeadAttention(**asdict(GPT2SmallAttentionConfig()))
