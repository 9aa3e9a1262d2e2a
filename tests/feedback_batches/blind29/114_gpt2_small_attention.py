def gpt2_small_attention():
    num_heads = 12
    emb_dim = 768
    return MultiHeadAttention(emb_dim, emb_dim // num_heads, emb_dim, 0.0, num_heads)
