def gpt2_small_attention():
    return MultiHeadAttention(768, 768 // 12, 1024, 0.1, 12)
