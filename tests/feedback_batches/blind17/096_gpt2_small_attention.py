def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    n_head, head_size = 12, 64
    n_embd = n_head * head_size  # 768 features in and out
    return MultiHeadAttention(n_embd, n_embd, context_length=1024, dropout=0.0, num_heads=n_head)
