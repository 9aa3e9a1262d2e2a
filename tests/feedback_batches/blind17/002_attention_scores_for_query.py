import torch


def attention_scores_for_query(inputs, query):
    products = inputs * query  # (T, d): every feature of every token times the query's feature
    return products.sum(dim=0)
