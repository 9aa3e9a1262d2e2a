def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    num_heads = 12
    return MultiHeadAttention(768, 768 // num_heads, 1024, 0.1, num_heads)
