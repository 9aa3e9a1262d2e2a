def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    return MultiHeadAttentionWrapper(768, 768 // 12, 1024, 0.0, num_heads=12)
