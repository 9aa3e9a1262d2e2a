def gpt2_small_attention():
    return MultiHeadAttention(d_in=768, d_out=768 // 12, context_length=1024, dropout=0.1, num_heads=12)
