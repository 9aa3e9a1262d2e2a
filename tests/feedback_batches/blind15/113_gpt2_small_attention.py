def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    # the names of Hugging Face's GPT2Config, mapped onto this notebook's module
    config = {"n_embd": 768, "n_head": 12, "n_positions": 1024, "attn_pdrop": 0.0}
    return MultiHeadAttention(
        d_in=config["n_embd"],
        d_out=config["n_embd"],
        context_length=config["n_positions"],
        dropout=config["attn_pdrop"],
        num_heads=config["n_head"],
    )
