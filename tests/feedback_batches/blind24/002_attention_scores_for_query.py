import torch


def attention_scores_for_query(inputs, query):
    products = inputs * query  # (T, d), every embedding times the query
    return products.sum(dim=0)
