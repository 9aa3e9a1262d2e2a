def gpt2_small_attention():
    emb_dim, n_heads = 768, 12
    head_size = emb_dim // n_heads      # 64 features per head
    return MultiHeadAttention(emb_dim, head_size, 1024, 0.0, n_heads)
