def gpt2_small_attention():
    emb = 768
    return MultiHeadAttention(emb, emb, emb, 0.0, 12, qkv_bias=True)
