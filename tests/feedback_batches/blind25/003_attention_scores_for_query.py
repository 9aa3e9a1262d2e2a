def attention_scores_for_query(inputs, query):
    # (d,) @ (T, d) -> (T,)
    return torch.matmul(query, inputs)
