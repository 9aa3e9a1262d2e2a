def scaled_dot_product_scores(queries, keys):
    d_k = keys.shape[-1]
    scores = queries @ keys.mT / d_k ** 1/2
    return torch.softmax(scores, dim=-1)
