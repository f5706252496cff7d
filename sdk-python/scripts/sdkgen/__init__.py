"""The Python SDK's generator, driven by sdk-python/scripts/generate_operations.py: the resource tree and its typed
methods (``resources.py``), the TypedDicts of nested body fields (``params.py``), the webhook event union, the model
index and the version, all beside the models openapi-generator writes in the same step
(scripts/generate-sdk-python.sh)."""
