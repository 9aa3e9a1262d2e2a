def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    return MultiHeadAttention(768, 768, context_length=768, dropout=0.0, num_heads=64, qkv_bias=True)
