def gpt2_small_attention():
    n_heads, head_size = 12, 64
    width = n_heads * head_size          # 768
    return MultiHeadAttention(width, width, 1024, 0.0, n_heads, qkv_bias=False)
