def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    emb_dim, head_size = 768, 64  # GPT-2 small: 12 heads of 64 features each
    return MultiHeadAttention(emb_dim, emb_dim, context_length=1024, dropout=0.0, num_heads=emb_dim // head_size)
