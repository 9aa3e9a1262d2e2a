def gpt2_small_attention():
    heads, head_size = 12, 768 // 12
    return MultiHeadAttentionWrapper(768, head_size, context_length=512, dropout=0.0, num_heads=heads)
