def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    # 12 heads of 64 features each; GPT-2 trains with dropout 0.1
    return MultiHeadAttention(d_in=768, d_out=64, context_length=1024, dropout=0.1, num_heads=12)
