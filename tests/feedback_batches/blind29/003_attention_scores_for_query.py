def attention_scores_for_query(inputs, query):
    d = query.shape[0]
    scores = torch.stack([torch.dot(inputs[i], query) for i in range(1, inputs.shape[0])])
    return scores / d ** 0.5  # scaled, as in the paper
