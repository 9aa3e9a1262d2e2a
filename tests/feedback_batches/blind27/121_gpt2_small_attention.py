EMB_DIM = 768  # GPT-2 small: embedding size, in and out
NUM_HEADS = 12  # 12 heads of 768 // 12 = 64 features
CONTEXT_LENGTH = 1024  # the longest sequence GPT-2 reads


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    return MultiHeadAttention(EMB_DIM, EMB_DIM, CONTEXT_LENGTH, 0.0, NUM_HEADS)
