def gpt2_small_attention():
    # OpenAI's GPT-2 has biases on the query, key and value projections
    return MultiHeadAttention(768, 768, context_length=1024, dropout=0.0, num_heads=12, qkv_bias=True)
