def gpt2_small_attention():
    return MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12, qkv_bias=True)
