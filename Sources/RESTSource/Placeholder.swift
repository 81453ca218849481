import DocModel
