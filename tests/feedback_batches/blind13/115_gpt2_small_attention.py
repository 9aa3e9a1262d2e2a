def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    head_dim = 64  # GPT-2 small: 64 features per head
    return MultiHeadAttention(768, 768, 1024, dropout=0.1, num_heads=head_dim)
