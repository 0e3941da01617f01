# Django settings for the gateway's Django check (test/gateway/django.test.ts): the database comes from
# the environment, so the same project runs against the Pesto gateway and against PostgreSQL 15.
import os

SECRET_KEY = 'pesto-django-check'
DEBUG = False
USE_TZ = True
TIME_ZONE = 'UTC'
INSTALLED_APPS = ['django.contrib.contenttypes', 'django.contrib.auth', 'shop']
DATABASES = {
    'default': {
        'ENGINE': 'django.db.backends.postgresql',
        'HOST': os.environ['DJANGO_DB_HOST'],
        'PORT': os.environ['DJANGO_DB_PORT'],
        'NAME': os.environ['DJANGO_DB_NAME'],
        'USER': os.environ['DJANGO_DB_USER'],
        'PASSWORD': os.environ.get('DJANGO_DB_PASSWORD', ''),
        'OPTIONS': {'sslmode': 'disable'},
    },
}
DEFAULT_AUTO_FIELD = 'django.db.models.AutoField'
