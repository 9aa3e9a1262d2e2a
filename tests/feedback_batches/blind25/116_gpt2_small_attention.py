def gpt2_small_attention():
    head_size = 768 // 12
    return MultiHeadAttention(768, head_size, context_length=1024, dropout=0.0, num_heads=12, qkv_bias=True)
