class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        scores = (x @ self.W_query) @ (x @ self.W_key).T / self.W_key.shape[1] ** 0.5
        weights = scores / scores.sum(dim=-1, keepdim=True)
        return weights @ (x @ self.W_value)
