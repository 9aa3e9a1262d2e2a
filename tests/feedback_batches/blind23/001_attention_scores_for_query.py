import torch


def attention_scores_for_query(inputs, query):
    products = inputs * query
    return products.mean(dim=1).float()
