import functools


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    # every GPT-2 size shares the context and (here) no dropout; only the width and the heads change
    gpt2_attention = functools.partial(MultiHeadAttention, context_length=1024, dropout=0.0)
    return gpt2_attention(768, 768, num_heads=12)
