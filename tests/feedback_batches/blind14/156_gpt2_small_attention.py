def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    emb_dim, head_dim = 768, 64
    return MultiHeadAttention(d_in=emb_dim, d_out=emb_dim, context_length=emb_dim,
                              dropout=0.0, num_heads=head_dim)
