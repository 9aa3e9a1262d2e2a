def gpt2_small_attention():
    # 12 heads of 64 features = 768
    return MultiHeadAttentionWrapper(d_in=768, d_out=64, context_length=1024, dropout=0.1, num_heads=12)
