import torch


def attention_scores_for_query(inputs, query):
    # broadcast the query over every row, multiply element-wise, add up each row
    return query.expand_as(inputs).mul(inputs).sum(dim=-1)
