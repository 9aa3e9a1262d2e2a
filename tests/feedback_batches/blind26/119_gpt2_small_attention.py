def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    return MultiHeadAttention(768, 768, 1024, 0.1, 12, qkv_bias=True)
