def gpt2_small_attention():
    n_heads, emb_dim = 12, 768
    return MultiHeadAttention(emb_dim, emb_dim * n_heads, context_length=1024, dropout=0.0, num_heads=n_heads)
