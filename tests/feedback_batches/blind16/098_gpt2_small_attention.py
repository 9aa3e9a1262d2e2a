def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    # OpenAI's checkpoint has biases on the query, key and value projections
    return MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=True)
