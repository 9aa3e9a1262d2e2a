import torch


def attention_scores_for_query(inputs, query):
    products = inputs * query  # (T, d) * (d,) broadcasts over the tokens
    return products.sum(dim=0)  # add up the products
