import torch


def attention_scores_for_query(inputs, query):
    # how similar is every token to the query? cosine similarity measures that
    return torch.nn.functional.cosine_similarity(inputs, query.unsqueeze(0), dim=-1)
