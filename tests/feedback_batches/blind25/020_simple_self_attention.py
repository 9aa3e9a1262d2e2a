def simple_self_attention(inputs):
    weights = softmax_stable(attention_scores(inputs))     # (T, T), rows sum to 1
    return weights.T @ inputs                               # mix the tokens
