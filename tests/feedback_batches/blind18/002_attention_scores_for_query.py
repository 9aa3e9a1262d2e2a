def attention_scores_for_query(inputs, query):
    # one score per token: (T, d) @ (d, 1)
    return inputs @ query[:, None]
