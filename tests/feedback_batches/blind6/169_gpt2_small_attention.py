def gpt2_small_attention():
    return MultiHeadAttentionWrapper(768, 64, 1024, 0.0, 12)
